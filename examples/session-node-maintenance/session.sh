# Node maintenance: cordon a node, see new Pods avoid it, move a Pod out of its ReplicaSet
# with a label, and clean up with a cascading delete.
kubectl apply -f app.yaml
sleep 20s
kubectl get pods -o wide
kubectl cordon kind-worker
kubectl get nodes
kubectl scale deployment web --replicas=4
sleep 30s
kubectl get pods -o wide
kubectl uncordon kind-worker
kubectl taint nodes kind-worker2 maintenance=true:NoSchedule
kubectl get pods -l app=web -o name
# A Pod relabelled out of the selector is no longer the ReplicaSet's: it makes another.
kubectl label pod web-7c64c74567-9vtnp app=debug --overwrite
sleep 20s
kubectl get pods -o wide
kubectl delete deployment web
kubectl get pods
