# A Deployment heals itself: delete one of its Pods and its ReplicaSet makes another.
kubectl apply -f app.yaml
sleep 20s
kubectl get pods
# kubectl waits until the Pod is gone; meanwhile the replacement is already created.
kubectl delete pod web-7c64c74567-pgw5x
kubectl get pods
kubectl scale deployment web --replicas=3
kubectl get deployments
