# Several types in one command, dry runs, and what the API server stores.
# A server dry run: every request goes through authentication, authorization, admission
# and validation, and the API server writes nothing to etcd.
kubectl apply -f app.yaml --dry-run=server
kubectl get all
kubectl apply -f app.yaml
sleep 20s
# One table per type, each name prefixed with its type.
kubectl get deployment,service
kubectl get all -l app=web
kubectl get deploy/web svc/web svc/nope
# The Job has no labels in the file: read back from etcd, it has its template's.
kubectl get jobs,pods -l job-name=pi
# stringData was merged into data (the API server stores no stringData).
kubectl describe secret db
kubectl scale deployment web --replicas=3 --dry-run=server
kubectl delete deployment,service web --dry-run=client
kubectl get deploy,svc,rs -o name
kubectl delete deployment,service web
# kubectl waited for the two objects only; the garbage collector now deletes the
# ReplicaSet, then its Pods.
sleep 2s
kubectl get all
