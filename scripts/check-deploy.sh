#!/usr/bin/env bash
# Validates the deployment files offline (no Docker engine, no cluster): YAML lint,
# `docker-compose config` (compose 1.29 from Debian), `kubectl kustomize` of the base and every
# overlay, `nats-server -t` of the NATS users, then deploy/check-manifests.py, which cross-checks
# them against libs/contracts.
# Installs the Debian packages it needs when missing. Exits non-zero on any problem.
# Called from .ci/run; run it by hand the same way: scripts/check-deploy.sh
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '%s\n' "$*"; }
fail() {
  printf 'check-deploy: %s\n' "$*" >&2
  exit 1
}

# --- tools ----------------------------------------------------------------------------------
updated=false
apt_install() {
  command -v apt-get >/dev/null || fail "$1 is missing and apt-get is not available to install it"
  if [ "$updated" = false ]; then
    apt-get update -qq >/dev/null
    updated=true
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

command -v docker-compose >/dev/null || apt_install docker-compose
command -v yamllint >/dev/null || apt_install yamllint
# The checker needs PyYAML; Debian's python3 has it with yamllint (python3-yaml).
PYTHON=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import yaml' 2>/dev/null; then
    PYTHON=$candidate
    break
  fi
done
[ -n "$PYTHON" ] || apt_install python3-yaml
[ -n "$PYTHON" ] || PYTHON=/usr/bin/python3

# kubectl is not in Debian's main archive (its kubernetes-client 1.20 bundles kustomize v2, too
# old for `resources: [dir]` and `patches`); install it from an apt source when one offers it.
if ! command -v kubectl >/dev/null; then
  if [ "$updated" = false ] && command -v apt-get >/dev/null; then
    apt-get update -qq >/dev/null
    updated=true
  fi
  if apt-cache policy kubectl 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    apt_install kubectl
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- YAML -----------------------------------------------------------------------------------
say "yamllint: docker-compose.yml deploy/"
yamllint --strict -d '{extends: default, rules: {line-length: {max: 170}, document-start: disable, truthy: {check-keys: false}, comments: {min-spaces-from-content: 1}}}' \
  docker-compose.yml deploy/

# --- docker-compose -------------------------------------------------------------------------
say "docker-compose $(docker-compose version --short 2>/dev/null): config -q"
# An empty env file: validate the file's own defaults, not a developer's local .env.
: >"$work/empty.env"
docker-compose --env-file "$work/empty.env" -f docker-compose.yml config -q
docker-compose --env-file "$work/empty.env" -f docker-compose.yml config >"$work/compose.yaml"

# --- kustomize ------------------------------------------------------------------------------
rendered=()
if command -v kubectl >/dev/null && kubectl kustomize --help >/dev/null 2>&1; then
  for dir in deploy/k8s/base deploy/k8s/overlays/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    say "kubectl kustomize $dir"
    kubectl kustomize "$dir" >"$work/$name.yaml" || fail "kustomize could not render $dir"
    rendered+=(--kustomize "$name=$work/$name.yaml")
  done
else
  say "NOTE: no kubectl with kustomize here and none installable from apt; Kubernetes manifests were"
  say "      checked by yamllint only, not rendered (install kubectl to render them)."
fi

# --- NATS users -----------------------------------------------------------------------------
# The per-app users and permissions parse as the server reads them (nats-server -t, when there).
"$PYTHON" deploy/generate-nats-auth.py --check || fail "run deploy/generate-nats-auth.py"
if command -v nats-server >/dev/null; then
  say "nats-server -t: deploy/k8s/base/nats-auth.conf"
  nats_env=()
  for name in $(grep -o '\$[A-Z_]*_NATS_PASSWORD' deploy/k8s/base/nats-auth.conf | tr -d '$'); do
    nats_env+=("$name=check-deploy")
  done
  env "${nats_env[@]}" nats-server -t -c deploy/k8s/base/nats-auth.conf >/dev/null 2>"$work/nats.err" ||
    fail "nats-server refuses deploy/k8s/base/nats-auth.conf: $(cat "$work/nats.err")"
else
  say "NOTE: no nats-server here; nats-auth.conf was checked by deploy/check-manifests.py only."
fi

# --- alert rules ----------------------------------------------------------------------------
# promtool comes with Debian's prometheus package (installed without starting the server).
command -v promtool >/dev/null || apt_install prometheus
say "promtool check rules deploy/observability/rules.yaml"
promtool check rules deploy/observability/rules.yaml
"$PYTHON" - <<'PY' || fail "PrometheusRule and deploy/observability/rules.yaml differ"
import yaml, sys
rules = yaml.safe_load(open("deploy/observability/rules.yaml"))["groups"]
resource = yaml.safe_load(open("deploy/k8s/observability/prometheus-rules.yaml"))["spec"]["groups"]
sys.exit(0 if rules == resource else 1)
PY
if command -v kubectl >/dev/null && kubectl kustomize --help >/dev/null 2>&1; then
  say "kubectl kustomize deploy/k8s/observability"
  kubectl kustomize deploy/k8s/observability >/dev/null || fail "kustomize could not render deploy/k8s/observability"
fi
"$PYTHON" -c 'import json; json.load(open("deploy/k8s/observability/dashboard.json"))' || fail "dashboard.json is not JSON"

# --- cross-checks ---------------------------------------------------------------------------
say "cross-checks against libs/contracts"
"$PYTHON" deploy/check-manifests.py --compose "$work/compose.yaml" "${rendered[@]}"
say "deploy files: ok"
