# Roll a Deployment out to a new image, watch the rollout, then roll it back.
kubectl apply -f app.yaml
kubectl rollout status deployment/web
kubectl set image deployment/web nginx=nginx:1.29
kubectl rollout status deployment/web
kubectl get replicasets
kubectl rollout history deployment/web
# A typo in the image: the new ReplicaSet's Pod never pulls, the old Pods keep serving.
kubectl set image deployment/web nginx=ngnix:1.29
kubectl rollout status deployment/web --timeout=60s
kubectl get pods
kubectl rollout undo deployment/web
kubectl rollout status deployment/web
kubectl get deployment web -o wide
