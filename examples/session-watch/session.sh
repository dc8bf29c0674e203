# Watching the cluster react: kubectl get -w, then a StatefulSet rollout and its undo.
kubectl apply -f app.yaml
sleep 30s
kubectl get pods -l app=web
# Delete one of web's Pods without waiting, then watch: the old Pod is Terminating until it
# is gone, its replacement goes Pending, ContainerCreating, Running. The lab ends the watch
# once the cluster is quiet, as Ctrl-C would.
kubectl delete pod web-7c64c74567-pgw5x --wait=false
kubectl get pods -l app=web -w
# A new image for the StatefulSet: its Pods are replaced one at a time, highest ordinal first.
kubectl set image statefulset/db redis=redis:8.2
kubectl rollout status statefulset/db
kubectl rollout history statefulset/db
# Back to the first revision (a ControllerRevision), watched with the event type of each line.
kubectl rollout undo statefulset/db
kubectl get pods -l app=db -w --watch-only --output-watch-events
kubectl rollout history statefulset/db
