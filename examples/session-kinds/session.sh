# Every kind the lab's API server serves answers to kubectl's names (plural, singular, short),
# with the API server's table columns and kubectl's describers.
kubectl apply -f app.yaml
sleep 30s
# The kind cluster's own objects: the kubelets' Leases, kind's default StorageClass, the
# system PriorityClasses.
kubectl get leases -n kube-node-lease
kubectl get sc
kubectl get pc
kubectl get ing
kubectl get netpol
kubectl get hpa
# kubectl's specific describers: the HPA without metrics-server (TARGETS <unknown>), the
# Endpoints the endpoints controller keeps for the Service.
kubectl describe hpa web
kubectl describe endpoints web
# A Lease has no describer of its own: kubectl's generic one prints every field.
kubectl describe lease kind-worker -n kube-node-lease
# A type a real cluster serves that the lab's API server does not; then an unknown one.
kubectl get csr
kubectl get widgets
