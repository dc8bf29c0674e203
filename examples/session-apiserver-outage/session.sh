# The API server goes away while Pods run: what happens to them?
kubectl apply -f app.yaml
sleep 15s
kubectl get pods
lab stop kube-apiserver
# Every kubectl command is refused now; nothing can be changed.
kubectl get pods
kubectl scale deployment web --replicas=3
# The kubelets keep the containers running; flaky exits and is restarted on its node,
# but its status cannot be written while the API server is away.
sleep 40s
lab start kube-apiserver
sleep 5s
kubectl get pods
kubectl scale deployment web --replicas=3
sleep 5s
kubectl get pods
