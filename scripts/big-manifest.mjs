// A big, realistic manifest for load and responsiveness measurements: what `helm template`
// of a few dozen small charts gives, one "release" after another, each a ServiceAccount, a
// Role and its RoleBinding, a ConfigMap (an application.properties and a JSON dashboard, the
// long lines rendered charts carry), a Service and a Deployment with the labels, checksums,
// probes, resources and security context charts write. Deterministic: the same arguments give
// the same bytes. About 100 bytes a line, so 2,000 lines are about 200 KB.
//
//   node scripts/big-manifest.mjs [--lines N | --bytes B] [--dashboards B] [--error]  > big.yaml
//
// --lines N        exactly N lines (default 2000)
// --bytes B        at least B bytes (whole lines; accepts 200k, 5m)
// --dashboards B   with --bytes: the last B bytes are one ConfigMap of Grafana dashboards
//                  (as monitoring charts render them); above 256 KiB kubectl's
//                  last-applied annotation is too long and the API server refuses it,
//                  above 1 MiB the ConfigMap itself is too
// --error          the last Deployment gets an unknown field (a strict-decoding error near the end)
//
// Imported: `bigManifest({ lines, bytes, dashboards, error })` returns the text.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** SplitMix-like 32-bit generator: deterministic hex digests and choices. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const APPS = ['checkout', 'cart', 'catalog', 'payments', 'search', 'users', 'orders', 'shipping', 'reviews', 'ads'];
const IMAGES = ['nginx:1.29', 'nginx:1.27', 'busybox:1.36', 'nginx:1.27-alpine'];

function labels(name, chart, indent) {
  const p = ' '.repeat(indent);
  return [
    `${p}app.kubernetes.io/name: ${name}`,
    `${p}app.kubernetes.io/instance: ${name}`,
    `${p}app.kubernetes.io/version: "2.${chart % 10}.${chart % 7}"`,
    `${p}app.kubernetes.io/managed-by: Helm`,
    `${p}app.kubernetes.io/part-of: shop`,
    `${p}helm.sh/chart: ${name}-0.${chart % 13}.${chart % 5}`,
  ];
}

function hex(next, n) {
  let s = '';
  while (s.length < n) s += next().toString(16).padStart(8, '0');
  return s.slice(0, n);
}

/** The documents of release `k`, each an array of lines (no `---`). */
function release(k, next) {
  const app = APPS[k % APPS.length];
  const name = `${app}-${k}`;
  const source = (kind) => `# Source: ${name}/templates/${kind}.yaml`;
  const meta = (extra = []) => ['metadata:', `  name: ${name}`, '  labels:', ...labels(name, k, 4), ...extra];
  const docs = [];
  docs.push([source('serviceaccount'), 'apiVersion: v1', 'kind: ServiceAccount', ...meta(), 'automountServiceAccountToken: false']);
  docs.push([
    source('role'),
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: Role',
    ...meta(),
    'rules:',
    '- apiGroups: [""]',
    '  resources: ["configmaps"]',
    `  resourceNames: ["${name}", "${name}-config", "${name}-feature-flags", "${name}-dashboards"]`,
    '  verbs: ["get", "list", "watch"]',
    '- apiGroups: [""]',
    '  resources: ["secrets"]',
    `  resourceNames: ["${name}-tls", "${name}-credentials", "${name}-database", "${name}-oauth-client"]`,
    '  verbs: ["get"]',
    '- apiGroups: ["coordination.k8s.io"]',
    '  resources: ["leases"]',
    '  verbs: ["get", "create", "update"]',
  ]);
  docs.push([
    source('rolebinding'),
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: RoleBinding',
    ...meta(),
    'roleRef:',
    '  apiGroup: rbac.authorization.k8s.io',
    '  kind: Role',
    `  name: ${name}`,
    'subjects:',
    '- kind: ServiceAccount',
    `  name: ${name}`,
    '  namespace: default',
  ]);
  const props = [];
  for (let i = 0; i < 80; i++) {
    props.push(
      `    ${app}.feature.flag${i}.rollout=percentage:${next() % 100};cohort=${hex(next, 12)};owner=team-${app}@example.com;since=2026-0${1 + (i % 9)}-1${i % 10}`,
    );
  }
  const panels = [];
  for (let i = 0; i < 40; i++) {
    panels.push(
      `      {"id": ${i + 1}, "type": "timeseries", "title": "${app} p${[50, 90, 99][i % 3]} latency ${i}", "targets": [{"expr": "histogram_quantile(0.${[50, 90, 99][i % 3]}, sum(rate(http_request_duration_seconds_bucket{app=\\"${name}\\"}[5m])) by (le))"}], "gridPos": {"h": 8, "w": 12, "x": ${(i % 2) * 12}, "y": ${Math.floor(i / 2) * 8}}},`,
    );
  }
  docs.push([
    source('configmap'),
    'apiVersion: v1',
    'kind: ConfigMap',
    ...meta(),
    'data:',
    '  application.properties: |',
    `    server.port=8080`,
    `    spring.application.name=${name}`,
    ...props,
    '  dashboard.json: |',
    '    {',
    `      "title": "${name} overview", "uid": "${hex(next, 9)}", "schemaVersion": 39, "refresh": "30s",`,
    '      "panels": [',
    ...panels,
    '      {"id": 99, "type": "text", "title": "notes", "options": {"content": "generated"}}',
    '      ]',
    '    }',
  ]);
  docs.push([
    source('service'),
    'apiVersion: v1',
    'kind: Service',
    ...meta(),
    'spec:',
    '  type: ClusterIP',
    '  selector:',
    `    app.kubernetes.io/name: ${name}`,
    `    app.kubernetes.io/instance: ${name}`,
    '  ports:',
    '  - name: http',
    '    port: 80',
    '    targetPort: http',
    '    protocol: TCP',
  ]);
  const image = IMAGES[k % IMAGES.length];
  docs.push([
    source('deployment'),
    'apiVersion: apps/v1',
    'kind: Deployment',
    ...meta(),
    'spec:',
    `  replicas: ${1 + (k % 2)}`,
    '  revisionHistoryLimit: 3',
    '  selector:',
    '    matchLabels:',
    `      app.kubernetes.io/name: ${name}`,
    `      app.kubernetes.io/instance: ${name}`,
    '  template:',
    '    metadata:',
    '      annotations:',
    `        checksum/config: ${hex(next, 64)}`,
    `        checksum/secret: ${hex(next, 64)}`,
    '      labels:',
    ...labels(name, k, 8),
    '    spec:',
    `      serviceAccountName: ${name}`,
    '      securityContext:',
    '        runAsNonRoot: true',
    '        runAsUser: 101',
    '        fsGroup: 101',
    '      containers:',
    `      - name: ${app}`,
    `        image: ${image}`,
    '        imagePullPolicy: IfNotPresent',
    '        ports:',
    '        - name: http',
    '          containerPort: 8080',
    '          protocol: TCP',
    '        env:',
    '        - name: SPRING_CONFIG_LOCATION',
    '          value: /etc/app/application.properties',
    '        - name: OTEL_EXPORTER_OTLP_ENDPOINT',
    '          value: http://otel-collector.observability.svc.cluster.local:4317',
    '        - name: OTEL_RESOURCE_ATTRIBUTES',
    `          value: service.name=${name},service.namespace=shop,deployment.environment=staging`,
    '        resources:',
    '          requests:',
    `            cpu: ${50 + (k % 4) * 25}m`,
    `            memory: ${64 + (k % 3) * 32}Mi`,
    '          limits:',
    `            memory: ${128 + (k % 3) * 64}Mi`,
    '        readinessProbe:',
    '          httpGet:',
    '            path: /healthz',
    '            port: http',
    '          periodSeconds: 10',
    '        securityContext:',
    '          allowPrivilegeEscalation: false',
    '          readOnlyRootFilesystem: true',
    '          capabilities:',
    '            drop: ["ALL"]',
    '        volumeMounts:',
    '        - name: config',
    '          mountPath: /etc/app',
    '          readOnly: true',
    '      volumes:',
    '      - name: config',
    '        configMap:',
    `          name: ${name}`,
  ]);
  return docs;
}

/** A ConfigMap of exactly `n` lines (n >= 7) to fill a manifest up to its line count. */
function filler(n, next) {
  const head = ['# Source: extra/templates/configmap.yaml', 'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: extra-settings', 'data:', '  settings.ini: |'];
  const body = [];
  for (let i = head.length; i < n; i++) body.push(`    key${i}=value-${hex(next, 24)}; region=eu-west-${1 + (i % 3)}; tier=${["gold", "silver", "bronze"][i % 3]}; enabled=true; checksum=${hex(next, 16)}`);
  return [...head, ...body].slice(0, Math.max(n, head.length));
}

/** A ConfigMap of Grafana dashboards of about `bytes` bytes (whole lines). */
function dashboards(bytes, next) {
  const out = ['# Source: monitoring/templates/grafana/dashboards.yaml', 'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: grafana-dashboards', '  labels:', '    grafana_dashboard: "1"', 'data:'];
  let size = out.reduce((a, l) => a + l.length + 1, 0);
  for (let d = 0; size < bytes; d++) {
    const head = [`  dashboard-${d}.json: |`, '    {', `      "title": "service ${d}", "uid": "${hex(next, 9)}", "panels": [`];
    for (const l of head) {
      out.push(l);
      size += l.length + 1;
    }
    for (let i = 0; i < 40 && size < bytes; i++) {
      const l = `        {"id": ${i + 1}, "type": "timeseries", "title": "panel ${i}", "targets": [{"expr": "sum(rate(http_requests_total{service=\\"svc-${d}\\", code=~\\"5..\\"}[5m])) / sum(rate(http_requests_total{service=\\"svc-${d}\\"}[5m]))", "refId": "${hex(next, 6)}"}]},`;
      out.push(l);
      size += l.length + 1;
    }
    for (const l of ['        {"id": 999, "type": "text", "title": "end"}', '      ]', '    }']) {
      out.push(l);
      size += l.length + 1;
    }
  }
  return out;
}

/**
 * The manifest: releases one after another until `lines` lines (exactly, the last document a
 * filler ConfigMap) or, with `bytes`, until at least that many bytes.
 */
export function bigManifest({ lines = 2000, bytes = 0, dashboards: dash = 0, error = false } = {}) {
  const next = rng(27);
  const out = [];
  let size = 0;
  const push = (doc) => {
    if (out.length) {
      out.push('---');
      size += 4;
    }
    for (const l of doc) {
      out.push(l);
      size += l.length + 1;
    }
  };
  let lastDeployment = -1;
  for (let k = 0; ; k++) {
    const docs = release(k, next);
    const n = docs.reduce((a, d) => a + d.length + 1, 0);
    if (bytes ? size >= bytes - dash : out.length + n + 8 > lines) break;
    for (const d of docs) push(d);
    lastDeployment = out.length;
  }
  if (bytes && dash) push(dashboards(dash, next));
  if (!bytes) {
    const left = lines - out.length - (out.length ? 1 : 0);
    if (left >= 7) push(filler(left, next));
    else while (out.length < lines) out.push('# padding');
  }
  if (error && lastDeployment > 0) {
    // The container's last field before volumes, misspelled: strict decoding refuses it.
    const i = out.lastIndexOf('          readOnly: true', lastDeployment);
    if (i > 0) out.splice(i, 1, '          readOnyl: true');
  }
  return out.join('\n') + '\n';
}

function parseSize(s) {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s ?? '');
  if (!m) throw new Error(`not a size: ${s}`);
  return Math.round(Number(m[1]) * { '': 1, k: 1024, K: 1024, m: 1024 * 1024, M: 1024 * 1024 }[m[2]]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = { lines: 2000, bytes: 0, dashboards: 0, error: false };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--lines') opt.lines = Number(args[++i]);
    else if (args[i] === '--bytes') opt.bytes = parseSize(args[++i]);
    else if (args[i] === '--dashboards') opt.dashboards = parseSize(args[++i]);
    else if (args[i] === '--error') opt.error = true;
    else throw new Error(`big-manifest: unknown argument ${args[i]} (--lines N | --bytes B | --dashboards B | --error)`);
  }
  process.stdout.write(bigManifest(opt));
}
