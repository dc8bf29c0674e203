# Node maintenance with a PodDisruptionBudget: drain a node through the Eviction API.
kubectl apply -f app.yaml
sleep 20s
kubectl get pods -o wide
kubectl get pdb
# Two of the three replicas run on kind-worker2. The budget (minAvailable 2) allows one
# disruption: the second eviction is refused (429) and retried every 5 s until the first
# Pod's replacement is Ready on kind-worker.
kubectl drain kind-worker2
kubectl get pods -o wide
kubectl get pdb
kubectl uncordon kind-worker2
