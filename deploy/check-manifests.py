#!/usr/bin/env python3
"""Cross-checks the rendered deployment files against each other and against the code.

Called by scripts/check-deploy.sh with the output of `docker-compose config` and of
`kubectl kustomize` for each overlay. Offline: it reads files only. Checks what a schema
validator would not: ports and path prefixes agree with libs/contracts (docs/api/contract.md §0), every app
is deployed, probes hit the app's own prefix, secrets are referenced and never inlined, the
hardening the Deployments promise is there.

usage: check-manifests.py --compose FILE [--kustomize NAME=FILE ...]
"""
import argparse
import ipaddress
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The gateway's Prometheus listener (GATEWAY_METRICS_PORT's default), apart from its public port.
GATEWAY_METRICS_PORT = 9464
problems = []


def problem(where, text):
    problems.append(f"{where}: {text}")


def contract_apps():
    """{app: (prefix, port)} from libs/contracts/src/apps.ts, the single source of truth."""
    source = (ROOT / "libs/contracts/src/apps.ts").read_text()
    found = re.findall(r"^\s*'?([a-z-]+)'?: \{ prefix: '([a-z]*)', port: (\d+) \}", source, re.M)
    if len(found) != 9:
        sys.exit(f"check-manifests: expected 9 apps in libs/contracts/src/apps.ts, read {len(found)}")
    return {name: (prefix, int(port)) for name, prefix, port in found}


def contract_subjects():
    """(request subjects, event subjects) from libs/contracts/src/*.ts (`*Subjects` and `*Events` objects)."""
    requests, events = set(), set()
    for source in (ROOT / "libs/contracts/src").glob("*.ts"):
        text = source.read_text()
        for kind, body in re.findall(r"export const \w*?(Subjects|Events) = \{(.*?)\} as const", text, re.S):
            found = set(re.findall(r"'([a-z-]+(?:\.[a-z-]+)+)'", body))
            (requests if kind == "Subjects" else events).update(found)
    return requests, events


def nats_users():
    """{user: {"subscribe": [...], "publish_allow": [...], "publish_deny": [...]}} from nats-auth.conf."""
    text = (ROOT / "deploy/k8s/base/nats-auth.conf").read_text()
    users = {}
    for block in re.split(r"\n    \{\n", text)[1:]:
        user = re.search(r"user: ([a-z-]+)", block).group(1)
        lists = {
            "subscribe": re.search(r"subscribe: \{ allow: \[(.*?)\] \}", block),
            "publish_allow": re.search(r"publish: \{\s*allow: \[(.*?)\]", block, re.S),
            "publish_deny": re.search(r"deny: \[(.*?)\]", block),
        }
        users[user] = {k: re.findall(r'"([^"]+)"', m.group(1)) if m else [] for k, m in lists.items()}
        if not re.search(r"password: \$[A-Z_]+_NATS_PASSWORD", block):
            problem(f"nats-auth.conf {user}", "password must come from the server's environment (<APP>_NATS_PASSWORD)")
    return users


REVOCATIONS = "acl.user.tokens-revoked"
# The EVENTS stream's and its consumers' leader elections, which every app may hear.
LEADER_ADVISORIES = {
    "$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED.EVENTS",
    "$JS.EVENT.ADVISORY.CONSUMER.LEADER_ELECTED.EVENTS.*",
}


def check_nats_auth(apps):
    """Each app answers only its own subjects and publishes only its own events."""
    users = nats_users()
    requests, events = contract_subjects()
    owners = {}
    for app in apps:
        if app == "gateway":
            # It only hears of revoked tokens (docs/api/acl.md, revocation).
            gateway = users.get(app)
            if gateway is None:
                problem("nats-auth.conf", "no NATS user for the gateway (it hears of revoked tokens)")
            elif sorted(gateway["subscribe"]) != sorted(["_INBOX.>", REVOCATIONS]) or sorted(
                gateway["publish_allow"]
            ) != sorted(["_INBOX.>", "acl.users.token-versions"]):
                problem("nats-auth.conf gateway", "may only ask acl.users.token-versions and hear acl.user.tokens-revoked")
            continue
        if app not in users:
            problem("nats-auth.conf", f"no NATS user for {app}")
            continue
        subscribe = [s for s in users[app]["subscribe"] if s != REVOCATIONS and s not in LEADER_ADVISORIES]
        prefixes = [s[:-2] for s in subscribe if s.endswith(".>") and s != "_INBOX.>"]
        if REVOCATIONS not in users[app]["subscribe"] and REVOCATIONS.split(".")[0] not in prefixes:
            problem(f"nats-auth.conf {app}", f"must hear {REVOCATIONS} (revoked tokens)")
        if sorted(subscribe) != sorted([f"{p}.>" for p in prefixes] + ["_INBOX.>"]) or not prefixes:
            problem(f"nats-auth.conf {app}", f"subscribe must be its own <owner>.> subjects and _INBOX.> only, not {subscribe}")
        for prefix in prefixes:
            if prefix in owners:
                problem("nats-auth.conf", f"{prefix}.> is subscribed by both {owners[prefix]} and {app}")
            owners[prefix] = app
    for subject in sorted(requests | events):
        if subject.split(".")[0] not in owners:
            problem("nats-auth.conf", f"{subject} (libs/contracts) belongs to no app's subjects")
    for app, lists in users.items():
        if app == "gateway":
            continue
        allowed = set(lists["publish_allow"])
        for subject in sorted(requests):
            if f"{subject.split('.')[0]}.>" not in allowed:
                problem(f"nats-auth.conf {app}", f"cannot publish requests to {subject}")
        for subject in sorted(events):
            own = owners.get(subject.split(".")[0]) == app
            denied = subject in lists["publish_deny"]
            if own and denied:
                problem(f"nats-auth.conf {app}", f"cannot publish its own event {subject}")
            if not own and not denied:
                problem(f"nats-auth.conf {app}", f"may publish {subject}, another app's event")
    return users


def env_name(app):
    return app.upper().replace("-", "_")


def health_path(prefix, kind):
    return f"/{prefix}/health/{kind}" if prefix else f"/health/{kind}"


def check_compose(path, apps):
    config = yaml.safe_load(pathlib.Path(path).read_text())
    services = config.get("services", {})
    for server in ("postgres", "nats"):
        if server not in services:
            problem("docker-compose", f"no {server} service")
    for app, (prefix, port) in apps.items():
        where = f"docker-compose {app}"
        service = services.get(app)
        if service is None:
            problem("docker-compose", f"no service for {app}")
            continue
        env = service.get("environment") or {}
        if str(env.get("PORT")) != str(port):
            problem(where, f"PORT is {env.get('PORT')!r}, docs/api/contract.md §0 says {port}")
        if f"dist/apps/{app}/src/main.js" not in " ".join(map(str, service.get("command") or [])):
            problem(where, "command does not run its own dist/apps/<app>/src/main.js")
        test = " ".join(map(str, (service.get("healthcheck") or {}).get("test") or []))
        if health_path(prefix, "ready") not in test:
            problem(where, f"healthcheck does not call {health_path(prefix, 'ready')}")
        if app == "gateway":
            for upstream, (_, upstream_port) in apps.items():
                if upstream == "gateway":
                    continue
                expected = f"http://{upstream}:{upstream_port}"
                if env.get(f"{env_name(upstream)}_URL") != expected:
                    problem(where, f"{env_name(upstream)}_URL should be {expected}")
            if not any(str(p.get("target") if isinstance(p, dict) else p).endswith("3000") for p in service.get("ports") or []):
                problem(where, "port 3000 is not published")
        else:
            database = f"media_{app.replace('-', '_')}"
            if not str(env.get("DATABASE_URL", "")).endswith(f"/{database}"):
                problem(where, f"DATABASE_URL should name its own database {database}")
            for name in ("NATS_URL", "CURSOR_SECRET"):
                if not env.get(name):
                    problem(where, f"{name} is not set")
            if not re.match(rf"^nats://{re.escape(app)}:[^@\s]+@nats:4222$", str(env.get("NATS_URL", ""))):
                problem(where, f"NATS_URL should log in as its own NATS user {app} (nats://{app}:<password>@nats:4222)")
            depends = service.get("depends_on") or {}
            for server in ("postgres", "nats"):
                if (depends.get(server) or {}).get("condition") != "service_healthy":
                    problem(where, f"does not wait for a healthy {server}")
    gateway_address = ((((services.get("gateway") or {}).get("networks") or {}).get("default")) or {}).get("ipv4_address")
    # The engine hands out addresses from ip_range (the whole subnet without one): a fixed address
    # inside it may already be taken by a container that started first, and `up` fails.
    if gateway_address:
        pools = ((config.get("networks") or {}).get("default") or {}).get("ipam", {}).get("config") or []
        address = ipaddress.ip_address(gateway_address)
        if not any(address in ipaddress.ip_network(p.get("subnet", "0.0.0.0/32")) for p in pools):
            problem("docker-compose gateway", f"{gateway_address} is outside the network's subnet")
        for pool in pools:
            dynamic = pool.get("ip_range") or pool.get("subnet")
            if dynamic and address in ipaddress.ip_network(dynamic):
                problem("docker-compose gateway", f"{gateway_address} is inside the dynamic range {dynamic}: set ip_range")
    for app in apps:
        if app == "gateway":
            continue
        trusted = str(((services.get(app) or {}).get("environment") or {}).get("TRUSTED_PROXIES", ""))
        if not gateway_address or gateway_address not in trusted:
            problem(f"docker-compose {app}", "TRUSTED_PROXIES does not name the gateway's fixed address")
    nats = services.get("nats") or {}
    command = " ".join(map(str, nats.get("command") or []))
    if "-c /etc/nats/nats-auth.conf" not in command or not any(
        "deploy/k8s/base/nats-auth.conf:/etc/nats/nats-auth.conf" in str(v) for v in nats.get("volumes") or []
    ):
        problem("docker-compose nats", "does not run with deploy/k8s/base/nats-auth.conf (per-app users)")
    for app in apps:
        if app != "gateway" and f"{env_name(app)}_NATS_PASSWORD" not in (nats.get("environment") or {}):
            problem("docker-compose nats", f"{env_name(app)}_NATS_PASSWORD is not passed to the NATS server")
    acl = (services.get("acl") or {}).get("environment") or {}
    for name in ("ADMIN_EMAIL", "ADMIN_PASSWORD"):
        if not acl.get(name):
            problem("docker-compose acl", f"{name} is not set")


def probe_path(container, probe):
    return (((container.get(probe) or {}).get("httpGet")) or {}).get("path")


def check_kustomize(label, path, apps):
    documents = [d for d in yaml.safe_load_all(pathlib.Path(path).read_text()) if d]
    by_kind = {}
    for document in documents:
        by_kind.setdefault(document["kind"], {})[document["metadata"]["name"]] = document
    deployments = by_kind.get("Deployment", {})
    services = by_kind.get("Service", {})
    if "Secret" in by_kind:
        problem(label, "renders a Secret: values belong outside the repository, only references here")
    required_keys = set()
    for app, (prefix, port) in apps.items():
        where = f"{label} Deployment/{app}"
        deployment = deployments.get(app)
        if deployment is None:
            problem(label, f"no Deployment for {app}")
            continue
        spec = deployment["spec"]
        pod = spec["template"]["spec"]
        labels = spec["template"]["metadata"].get("labels", {})
        if pod.get("enableServiceLinks") is not False:
            problem(where, "enableServiceLinks must be false (Kubernetes would set <APP>_PORT=tcp://...)")
        if not (pod.get("securityContext") or {}).get("runAsNonRoot"):
            problem(where, "pod securityContext.runAsNonRoot is not true")
        if not pod.get("terminationGracePeriodSeconds"):
            problem(where, "no terminationGracePeriodSeconds")
        containers = pod.get("containers") or []
        if len(containers) != 1:
            problem(where, "expected one container")
            continue
        container = containers[0]
        image = container.get("image", "")
        if label != "base" and ":" not in image.rsplit("/", 1)[-1]:
            problem(where, f"image {image!r} has no tag")
        if f"dist/apps/{app}/src/main.js" not in " ".join(container.get("command") or []):
            problem(where, "command does not run its own dist/apps/<app>/src/main.js")
        if not (ROOT / "apps" / app / "src" / "main.ts").exists():
            problem(where, f"apps/{app}/src/main.ts does not exist")
        ports = [p.get("containerPort") for p in container.get("ports") or []]
        # The gateway has a second listener, its metrics (never the public one).
        expected_ports = [port, GATEWAY_METRICS_PORT] if app == "gateway" else [port]
        if ports != expected_ports:
            problem(where, f"containerPort {ports}, docs/api/contract.md §0 says {expected_ports}")
        if app == "gateway" and (env_of(container).get("GATEWAY_METRICS_PORT") or {}).get("value") != str(GATEWAY_METRICS_PORT):
            problem(where, f"GATEWAY_METRICS_PORT should be {GATEWAY_METRICS_PORT}")
        env = {e["name"]: e for e in container.get("env") or []}
        if (env.get("PORT") or {}).get("value") != str(port):
            problem(where, f"PORT should be {port}")
        for entry in env.values():
            ref = (entry.get("valueFrom") or {}).get("secretKeyRef")
            if ref:
                required_keys.add(f"{ref['name']}/{ref['key']}")
        for name in ("DATABASE_URL", "CURSOR_SECRET", "ADMIN_EMAIL", "ADMIN_PASSWORD", "JWT_PRIVATE_KEY"):
            if name in env and "value" in env[name]:
                problem(where, f"{name} is given as a value; it must come from a Secret")
        if app != "gateway":
            for name in ("DATABASE_URL", "CURSOR_SECRET"):
                if name not in env:
                    problem(where, f"{name} is not set")
            nats_ref = ((env.get("NATS_URL") or {}).get("valueFrom") or {}).get("secretKeyRef") or {}
            if nats_ref.get("key") != f"NATS_URL_{env_name(app)}":
                problem(where, f"NATS_URL must come from the Secret key NATS_URL_{env_name(app)} (its own NATS user)")
        # The gateway's readiness is deliberately its liveness (see deploy/k8s/base/gateway.yaml).
        ready = health_path(prefix, "live" if app == "gateway" else "ready")
        if probe_path(container, "readinessProbe") != ready:
            problem(where, f"readinessProbe should be {ready}")
        if probe_path(container, "livenessProbe") != health_path(prefix, "live"):
            problem(where, f"livenessProbe should be {health_path(prefix, 'live')}")
        resources = container.get("resources") or {}
        if not (resources.get("requests") or {}).get("memory") or not (resources.get("limits") or {}).get("memory"):
            problem(where, "memory request and limit are required")
        security = container.get("securityContext") or {}
        if security.get("readOnlyRootFilesystem") is not True or security.get("allowPrivilegeEscalation") is not False:
            problem(where, "container must have readOnlyRootFilesystem and no privilege escalation")
        service = services.get(app)
        if service is None:
            problem(label, f"no Service for {app}")
        else:
            selector = service["spec"].get("selector") or {}
            if not selector or any(labels.get(k) != v for k, v in selector.items()):
                problem(f"{label} Service/{app}", "selector does not match the Deployment's pods")
            expected_ports = [port, GATEWAY_METRICS_PORT] if app == "gateway" else [port]
            if [p.get("port") for p in service["spec"].get("ports") or []] != expected_ports:
                problem(f"{label} Service/{app}", f"ports should be {expected_ports}")
    for name, budget in by_kind.get("PodDisruptionBudget", {}).items():
        selector = budget["spec"]["selector"]["matchLabels"]
        targets = [d for d in deployments.values() if all(d["spec"]["template"]["metadata"]["labels"].get(k) == v for k, v in selector.items())]
        if not targets:
            problem(f"{label} PodDisruptionBudget/{name}", "selects no Deployment")
        elif any(t["spec"].get("replicas", 1) < 2 for t in targets):
            problem(f"{label} PodDisruptionBudget/{name}", "guards a single replica: it would block every node drain")
    for app, deployment in deployments.items():
        if deployment["spec"].get("replicas", 1) >= 2 and app not in by_kind.get("PodDisruptionBudget", {}):
            problem(f"{label} Deployment/{app}", "replicated but has no PodDisruptionBudget")
    for name, ingress in by_kind.get("Ingress", {}).items():
        for rule in ingress["spec"].get("rules") or []:
            for entry in (rule.get("http") or {}).get("paths") or []:
                backend = entry["backend"]["service"]["name"]
                if backend not in services:
                    problem(f"{label} Ingress/{name}", f"path {entry['path']} goes to unknown Service {backend}")
    check_network_policies(label, by_kind.get("NetworkPolicy", {}), apps)
    if "nats-auth" not in by_kind.get("ConfigMap", {}):
        problem(label, "no ConfigMap nats-auth (the NATS users and permissions)")
    config = by_kind.get("ConfigMap", {}).get("media-config")
    if config is None:
        problem(label, "no ConfigMap media-config")
    else:
        for upstream, (_, upstream_port) in apps.items():
            if upstream != "gateway" and config["data"].get(f"{env_name(upstream)}_URL") != f"http://{upstream}:{upstream_port}":
                problem(f"{label} ConfigMap/media-config", f"{env_name(upstream)}_URL should be http://{upstream}:{upstream_port}")
        if not config["data"].get("TRUSTED_PROXIES"):
            problem(f"{label} ConfigMap/media-config", "TRUSTED_PROXIES is not set (the apps would ignore the gateway's X-Forwarded-*)")
    return sorted(required_keys), sum(len(v) for v in by_kind.values())


def env_of(container):
    return {e["name"]: e for e in container.get("env") or []}


def check_network_policies(label, policies, apps):
    """Only the gateway reaches the apps' HTTP ports, except acl's, which every app reaches too."""
    deny = policies.get("default-deny")
    if deny is None or sorted(deny["spec"].get("policyTypes") or []) != ["Egress", "Ingress"] or deny["spec"].get("ingress") or deny["spec"].get("egress"):
        problem(label, "no default-deny NetworkPolicy (ingress and egress) for the system's pods")
    for app, (_, port) in apps.items():
        where = f"{label} NetworkPolicy/{app}"
        policy = policies.get(app)
        if policy is None:
            problem(label, f"no NetworkPolicy for {app}")
            continue
        if (policy["spec"].get("podSelector") or {}).get("matchLabels") != {"app.kubernetes.io/name": app}:
            problem(where, "does not select the app's pods")
        for rule in policy["spec"].get("ingress") or []:
            prometheus = [
                f for f in rule.get("from") or []
                if (f.get("podSelector") or {}).get("matchLabels") == {"app.kubernetes.io/name": "prometheus"}
                and "namespaceSelector" in f
            ]
            only_prometheus = bool(prometheus) and len(prometheus) == len(rule.get("from") or [])
            opened = [p.get("port") for p in rule.get("ports") or []]
            if app == "gateway":
                # Its public port from anywhere; its metrics port (GATEWAY_METRICS_PORT) from Prometheus only.
                if opened != [port] and not (only_prometheus and opened == [GATEWAY_METRICS_PORT]):
                    problem(where, f"ingress should open port {port}, and {GATEWAY_METRICS_PORT} to Prometheus only")
                continue
            if opened != [port]:
                problem(where, f"ingress should open only port {port}")
            if prometheus and len(prometheus) == len(rule.get("from") or []):
                continue  # the scraper, on the app's own port (checked above)
            sources = [(f.get("podSelector") or {}).get("matchLabels") for f in rule.get("from") or []]
            allowed = [{"app.kubernetes.io/name": "gateway"}]
            if app == "acl":
                allowed.append({"app.kubernetes.io/component": "service", "app.kubernetes.io/part-of": "media-backoffice"})
            if not sources or any(s not in allowed for s in sources):
                problem(where, f"ingress from {sources}: only the gateway{' and the apps' if app == 'acl' else ''} may reach it")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compose", required=True)
    parser.add_argument("--kustomize", action="append", default=[], metavar="NAME=FILE")
    args = parser.parse_args()
    apps = contract_apps()
    users = check_nats_auth(apps)
    print(f"  nats-auth.conf: {len(users)} NATS users against libs/contracts subjects")
    check_compose(args.compose, apps)
    print(f"  docker-compose: {len(apps)} apps against docs/api/contract.md §0 ports and prefixes")
    for item in args.kustomize:
        label, path = item.split("=", 1)
        keys, count = check_kustomize(label, path, apps)
        secrets = sorted({k.split("/")[0] for k in keys})
        print(f"  kustomize {label}: {count} objects; Secret keys expected in {', '.join(secrets) or '-'}: {len(keys)}")
    if problems:
        print("deploy files: problems found:", file=sys.stderr)
        for line in problems:
            print(f"  - {line}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
