//! Terraform/OpenTofu plan and apply.
//!
//! Most of a plan is state refreshes, the legend and `(known after apply)` placeholders; the resource
//! headers, real attribute changes, the `Plan:` line and any `Error:` block are what an agent needs.

use crate::detect::skip_options;
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Mark, NoteAt, Plan};
use crate::rules;

pub(crate) static PLAN: Family = Family::new("terraform-plan", "terraform plan", plan_or_apply);
pub(crate) static APPLY: Family =
    Family::new("terraform-apply", "terraform -chdir=infra apply -auto-approve", plan_or_apply);

/// terraform and OpenTofu, by subcommand.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| {
        matches!(program, "terraform" | "tofu").then(|| match skip_options(args, &[]).first().map(String::as_str) {
            Some("plan") => &PLAN,
            Some("apply" | "destroy") => &APPLY,
            Some("console") => &PASSTHROUGH,
            _ => &GENERIC,
        })
    },
    members: &[&PLAN, &APPLY],
};

/// Per-resource progress lines whose completion line says the same thing.
const PROGRESS: &[&str] = &[
    ": Refreshing state...",
    ": Reading...",
    ": Read complete after",
    ": Creating...",
    ": Modifying...",
    ": Destroying...",
    ": Still creating...",
    ": Still modifying...",
    ": Still destroying...",
    ": Still reading...",
];

/// Boilerplate paragraphs, dropped from their first line to the next blank line.
const PARAGRAPHS: &[&str] = &[
    "Terraform used the selected providers to generate the following",
    "OpenTofu used the selected providers to generate the following",
    "Note: You didn't use the -out option",
];

fn plan_or_apply(plan: &mut Plan, failed: bool) {
    let mut in_paragraph = false;
    for i in 0..plan.len() {
        let line = plan.line(i);
        if rules::starts_with_any(line, PARAGRAPHS) {
            in_paragraph = true;
        }
        if in_paragraph {
            in_paragraph = !line.trim().is_empty();
            plan.set(i, Mark::Drop);
        } else if PROGRESS.iter().any(|p| line.contains(p))
            || line.starts_with("Acquiring state lock")
            || line.starts_with("Releasing state lock")
            || (!line.is_empty() && line.chars().all(|c| c == '─'))
        {
            plan.set(i, Mark::Drop);
        } else if line.trim_start().starts_with("# ")
            || line.starts_with("Plan: ")
            || line.starts_with("Apply complete!")
            || line.starts_with("Destroy complete!")
            || line.starts_with("No changes.")
        {
            plan.set(i, Mark::Must);
        }
    }
    plan.drop_counted("attributes known only after apply not shown", NoteAt::End, failed, |line| {
        line.trim_end_matches(',').ends_with("(known after apply)")
    });
}
