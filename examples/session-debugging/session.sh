# A Deployment whose container exits at start: find out why with logs, fix it with patch.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 1
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      containers:
      - name: app
        image: busybox:1.37
        command: ["sh", "-c", "echo starting api; echo missing setting MODE; exit 1"]
EOF
sleep 40s
kubectl get pods
kubectl logs deployment/api
kubectl logs deployment/api --previous
kubectl patch deployment api --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/command","value":["sh","-c","echo starting api in mode fast; sleep 3600"]}]'
kubectl rollout status deployment/api --timeout=60s
kubectl get pods
kubectl logs deployment/api
