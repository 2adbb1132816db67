//! Containers and clusters: docker/podman (ps, images, build, logs) and kubectl (get, describe, logs).

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::{has_flag, has_short, skip_options};
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Cut, Mark, Plan};
use crate::rules;

pub(crate) static DOCKER_PS: Family = Family::new("docker-ps", "docker ps -a", table).listing();
pub(crate) static DOCKER_IMAGES: Family = Family::new("docker-images", "docker images", table).listing();
pub(crate) static DOCKER_BUILD: Family =
    Family::new("docker-build", "docker build -t x .", docker_build).folding_similar();
pub(crate) static DOCKER_LOGS: Family =
    Family::new("docker-logs", "docker logs api", |plan, _| logs(plan)).folding_similar();
pub(crate) static KUBECTL_GET: Family = Family::new("kubectl-get", "kubectl get pods -A", table).listing();
pub(crate) static KUBECTL_DESCRIBE: Family =
    Family::new("kubectl-describe", "kubectl -n shop describe pod api-1", |plan, _| describe(plan));
pub(crate) static KUBECTL_LOGS: Family =
    Family::new("kubectl-logs", "kubectl logs api-1", |plan, _| logs(plan)).folding_similar();

/// docker/podman, docker-compose and kubectl/oc, by subcommand.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| match program {
        "docker" | "podman" => Some(docker(args)),
        "docker-compose" => Some(compose(args)),
        "kubectl" | "oc" => Some(kubectl(args)),
        _ => None,
    },
    members: &[&DOCKER_PS, &DOCKER_IMAGES, &DOCKER_BUILD, &DOCKER_LOGS, &KUBECTL_GET, &KUBECTL_DESCRIBE, &KUBECTL_LOGS],
};

fn docker(args: &[String]) -> &'static Family {
    let rest = skip_options(args, &["--context", "-c", "-H", "--host", "--log-level", "-l", "--config"]);
    let Some(sub) = rest.first() else { return &GENERIC };
    let sub_args = &rest[1..];
    let follow = has_flag(sub_args, &["-f", "--follow"]);
    match (sub.as_str(), sub_args.first().map(String::as_str)) {
        ("ps", _) | ("container", Some("ls" | "list" | "ps")) => &DOCKER_PS,
        ("images", _) | ("image", Some("ls" | "list")) => &DOCKER_IMAGES,
        ("build", _) | ("image" | "buildx" | "builder", Some("build")) => &DOCKER_BUILD,
        ("logs", _) | ("container", Some("logs")) if follow => &PASSTHROUGH,
        ("logs", _) | ("container", Some("logs")) => &DOCKER_LOGS,
        ("compose", _) => compose(sub_args),
        ("run" | "exec", _) if has_flag(sub_args, &["--interactive", "--tty"]) || has_short(sub_args, 'i') => {
            &PASSTHROUGH
        }
        ("attach" | "events", _) => &PASSTHROUGH,
        ("stats", _) if !has_flag(sub_args, &["--no-stream"]) => &PASSTHROUGH,
        _ => &GENERIC,
    }
}

fn compose(args: &[String]) -> &'static Family {
    let rest = skip_options(args, &["-f", "--file", "-p", "--project-name", "--profile", "--env-file"]);
    let sub_args = rest.get(1..).unwrap_or_default();
    match rest.first().map(String::as_str) {
        Some("build") => &DOCKER_BUILD,
        Some("ps") => &DOCKER_PS,
        Some("images") => &DOCKER_IMAGES,
        Some("logs") if has_flag(sub_args, &["-f", "--follow"]) => &PASSTHROUGH,
        Some("logs") => &DOCKER_LOGS,
        Some("up") if !has_flag(sub_args, &["-d", "--detach"]) => &PASSTHROUGH,
        _ => &GENERIC,
    }
}

fn kubectl(args: &[String]) -> &'static Family {
    let rest = skip_options(args, &["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s"]);
    let Some(sub) = rest.first() else { return &GENERIC };
    let sub_args = &rest[1..];
    match sub.as_str() {
        "get" if has_flag(sub_args, &["-w", "--watch", "--watch-only"]) => &PASSTHROUGH,
        "get" => &KUBECTL_GET,
        "describe" => &KUBECTL_DESCRIBE,
        "logs" if has_flag(sub_args, &["-f", "--follow"]) => &PASSTHROUGH,
        "logs" => &KUBECTL_LOGS,
        "exec" | "run" if has_flag(sub_args, &["--stdin", "--tty"]) || has_short(sub_args, 'i') => &PASSTHROUGH,
        "attach" | "port-forward" | "proxy" | "edit" => &PASSTHROUGH,
        _ => &GENERIC,
    }
}

/// Tables with more rows than this show only the rows that need attention.
const HEALTHY_ROWS_SHOWN: usize = 15;

/// `docker ps`, `docker images`, `kubectl get`: long tables keep their header and every row that needs
/// attention; healthy rows (running/up and fully ready) and dangling images are counted. YAML output loses
/// `managedFields` and the last-applied-configuration annotation, bookkeeping beside the object, counted.
fn table(plan: &mut Plan, failed: bool) {
    if plan.len() > 0 && matches!(plan.line(0).split(':').next(), Some("apiVersion" | "kind" | "items")) {
        // A whole object: the spec is what was asked for, so only very long documents are cut.
        plan.cut = Cut { max: 150, head: 100, tail: 30 };
    }
    let noise = yaml_noise(plan);
    plan.drop_kinds_counted(&noise, "lines of bookkeeping not shown", None, failed);
    let Some(header) = (0..plan.len()).find(|&i| !plan.line(i).trim().is_empty()) else { return };
    let head = plan.line(header);
    let column = |name: &str| head.find(name).filter(|_| head.starts_with(|c: char| c.is_ascii_uppercase()));
    let rows = header + 1..plan.len();
    if rows.len() <= HEALTHY_ROWS_SHOWN {
        return;
    }
    let status_at = column("STATUS");
    let ready_at = column("READY");
    let healthy: Vec<(usize, &str)> = rows
        .filter(|&i| {
            let line = plan.line(i);
            let field = |at: Option<usize>| at.and_then(|at| line.get(at..)).and_then(|s| s.split_whitespace().next());
            let status_ok =
                field(status_at).is_some_and(|s| matches!(s, "Running" | "Completed" | "Up" | "Active" | "Bound"));
            let ready_ok = field(ready_at).is_none_or(|r| r.split_once('/').is_some_and(|(a, b)| a == b));
            let dangling = line.starts_with("<none>");
            (status_ok && ready_ok) || dangling
        })
        .map(|i| (i, ""))
        .collect();
    plan.drop_kinds_counted(
        &healthy,
        "healthy rows (running/up and ready) or dangling images not shown",
        Some(plan.len()),
        failed,
    );
}

/// The lines of `managedFields:` subtrees and of the last-applied-configuration annotation in YAML output,
/// each with the key it falls under.
fn yaml_noise(plan: &Plan) -> Vec<(usize, &'static str)> {
    let mut noise = Vec::new();
    let mut skipping: Option<(usize, &'static str)> = None;
    for i in 0..plan.len() {
        let line = plan.line(i);
        let indent = line.len() - line.trim_start().len();
        let content = line.trim_start().trim_start_matches("- ");
        if let Some((depth, key)) = skipping {
            if indent > depth || (indent == depth && line.trim_start().starts_with("- ")) {
                noise.push((i, key));
                continue;
            }
            skipping = None;
        }
        let key = if content.starts_with("managedFields:") {
            "managedFields"
        } else if content.starts_with("kubectl.kubernetes.io/last-applied-configuration:") {
            "last-applied-configuration"
        } else {
            continue;
        };
        noise.push((i, key));
        skipping = Some((indent, key));
    }
    noise
}

static BUILDKIT_STEP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^#(\d+) (.*)$").expect("buildkit pattern compiles"));

/// Legacy-builder chatter about intermediate containers.
const LEGACY_NOISE: &[&str] =
    &[" ---> Running in ", "Removing intermediate container", "Sending build context", " ---> "];

/// `docker build`: each BuildKit step keeps its header (`#5 [2/4] RUN …`); step output, timings, layer
/// transfers and internal steps go — except in steps that failed, which stay (near-identical lines folded).
fn docker_build(plan: &mut Plan, failed: bool) {
    let steps: Vec<Option<(&str, &str)>> = plan
        .lines()
        .iter()
        .map(|line| {
            BUILDKIT_STEP
                .captures(line)
                .map(|c| (c.get(1).map_or("", |m| m.as_str()), c.get(2).map_or("", |m| m.as_str())))
        })
        .collect();
    let failed_steps: Vec<&str> =
        steps.iter().flatten().filter(|(_, rest)| rest.starts_with("ERROR")).map(|(n, _)| *n).collect();
    let mut dropped = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        match step {
            Some((n, _)) if failed_steps.contains(n) => {}
            Some((_, rest)) if rest.starts_with('[') && !rest.starts_with("[internal]") => {}
            Some((_, rest)) if rest.starts_with("naming to") || rest.starts_with("writing image") => {}
            Some(_) => dropped.push((i, "")),
            None if rules::starts_with_any(plan.line(i), LEGACY_NOISE) => dropped.push((i, "")),
            None => {}
        }
    }
    plan.drop_kinds_counted(&dropped, "step output, timing and transfer lines not shown", Some(plan.len()), failed);
    // Empty lines say nothing.
    plan.set_where(Mark::Drop, |line| line.trim().is_empty());
}

/// `docker logs`, `kubectl logs`: an application's log says whether it is healthy, so error lines are kept
/// whatever the exit code; lines that differ only in numbers fold.
fn logs(plan: &mut Plan) {
    plan.set_where(Mark::Must, rules::is_error);
}

/// Fields of `kubectl describe` that say what state an object is in and why.
const DESCRIBE_STATE: &[&str] = &[
    "Name:",
    "Status:",
    "State:",
    "Last State:",
    "Reason:",
    "Exit Code:",
    "Ready:",
    "Restart Count:",
    "Message:",
    "Image:",
];

/// `kubectl describe`: the state fields and the Events table explain most failures, so they are never cut;
/// volumes, tolerations and the like may be.
fn describe(plan: &mut Plan) {
    plan.set_where(Mark::Must, |line| rules::starts_with_any(line.trim_start(), DESCRIBE_STATE));
    if let Some(events) = (0..plan.len()).find(|&i| plan.line(i).starts_with("Events:")) {
        plan.set_range(events..plan.len(), Mark::Must);
    }
}

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn kubectls_bookkeeping_is_counted_by_key() {
        let mut raw = String::from("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  annotations:\n");
        raw += "    kubectl.kubernetes.io/last-applied-configuration: |\n";
        raw += &format!("      {{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":{}}}\n", "{}".repeat(40));
        raw += "  generation: 14\n  managedFields:\n  - apiVersion: apps/v1\n    fieldsType: FieldsV1\n    fieldsV1:\n";
        raw += &(0..20).map(|i| format!("      f:field{i}: {{}}\n")).collect::<String>();
        raw += "    manager: kubectl-client-side-apply\n  name: api\nspec:\n  replicas: 3\n";
        let text = compress("kubectl get deploy api -o yaml", &raw, 0).text;
        assert!(
            text.contains(
                "  annotations:\n… 27 lines of bookkeeping not shown: last-applied-configuration ×2, managedFields ×25\n  generation: 14\n  name: api\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_build_step_line_shown_for_its_error_is_not_counted_as_not_shown() {
        let mut raw = String::from("#1 [internal] load build definition from Dockerfile\n#1 DONE 0.0s\n\n");
        raw += "#5 [2/3] RUN npm ci\n";
        raw += &(0..12).map(|i| format!("#5 {i}.1 added {i} packages in 1s\n")).collect::<String>();
        raw += "#5 2.0 ERROR: ECONNRESET, retrying\n#5 DONE 3.1s\n\n#6 [3/3] COPY . .\n#6 DONE 0.1s\n";
        raw += "#7 exporting to image\n#7 writing image sha256:0b1c done\n#7 naming to docker.io/library/app done\n";
        let text = compress("docker build --progress=plain -t app .", &raw, 0).text;
        assert!(text.contains("#5 2.0 ERROR: ECONNRESET, retrying\n"), "{text}");
        assert!(text.ends_with("… 17 step output, timing and transfer lines not shown; 1 more shown\n"), "{text}");
    }
}
