# With kube-scheduler stopped, a new Pod stays Pending and nobody records an event about it:
# the symptom that points at the scheduler. Started again, it lists the Pods and binds it.
lab stop kube-scheduler
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.29
EOF
sleep 30s
kubectl get pods
kubectl get events
lab start kube-scheduler
sleep 10s
kubectl get pods -o wide
