# A worker machine lost and booted again: lab power-off, what the control plane sees, lab power-on.
kubectl apply -f app.yaml
sleep 20s
kubectl get pods -o wide
lab power-off kind-worker
# Nobody tells the API server: the Pod on kind-worker still shows Running.
kubectl get pods -o wide
sleep 1m
# 50 s without a heartbeat: the node-lifecycle controller set the node's conditions to
# Unknown and tainted it node.kubernetes.io/unreachable (NoSchedule and NoExecute).
kubectl get nodes
kubectl describe node kind-worker
sleep 5m
# The Pod's toleration of the unreachable taint (300 s) ran out: the taint eviction
# controller deleted it and the ReplicaSet replaced it on kind-worker2. No kubelet confirms
# the kill, so the deleted Pod stays Terminating.
kubectl get pods -o wide
lab power-on kind-worker
sleep 30s
# The kubelet booted: the node is Ready again and the Terminating Pod is gone.
kubectl get pods -o wide
kubectl get nodes
