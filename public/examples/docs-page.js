// Lists the events the two labs report (a documentation site could record progress here).
const list = document.getElementById('events');
for (const type of ['ready', 'quiz-answered', 'exercise-completed']) {
  document.addEventListener(`podlab-${type}`, (event) => {
    const item = document.createElement('li');
    const { source, type: kind, ...rest } = event.detail;
    item.dataset.lab = event.target.id;
    item.dataset.type = kind;
    item.textContent = `${event.target.id}: ${kind} ${JSON.stringify(rest)}`;
    list.appendChild(item);
  });
}
