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

/// Per-resource progress lines, counted by kind: a resource's changes and the closing line say what was done.
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
    let mut dropped: Vec<(usize, &str)> = Vec::new();
    let mut in_paragraph = false;
    for i in 0..plan.len() {
        let line = plan.line(i);
        if rules::starts_with_any(line, PARAGRAPHS) {
            in_paragraph = true;
        }
        if in_paragraph && !line.trim().is_empty() {
            dropped.push((i, "boilerplate"));
        } else if in_paragraph {
            // The blank line that ends the paragraph is spacing, left to the tidying of blank lines.
            in_paragraph = false;
        } else if let Some(progress) = PROGRESS.iter().find(|p| line.contains(*p)) {
            dropped.push((i, progress.trim_start_matches(": ").trim_end_matches("...").trim_end_matches(" after")));
        } else if line.starts_with("Acquiring state lock") || line.starts_with("Releasing state lock") {
            dropped.push((i, "state lock"));
        } else if !line.is_empty() && line.chars().all(|c| c == '─') {
            // A rule between sections says nothing.
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
    plan.drop_kinds_counted(&dropped, "lines not shown", None, failed);
    plan.drop_counted("attributes known only after apply not shown", NoteAt::End, failed, |line| {
        line.trim_end_matches(',').ends_with("(known after apply)")
    });
}

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn progress_state_locks_and_the_legend_are_counted_by_kind() {
        let mut raw = String::from("Acquiring state lock. This may take a few moments...\n");
        raw += &(0..4)
            .map(|i| {
                format!(
                    "terraform_data.service[{i}]: Refreshing state... [id=61c259e4-1bfa-f97c-866e-81f8df16aca{i}]\n"
                )
            })
            .collect::<String>();
        raw += "\nTerraform used the selected providers to generate the following execution\n";
        raw += "plan. Resource actions are indicated with the following symbols:\n  ~ update in-place\n\n";
        raw += "Terraform will perform the following actions:\n\n";
        raw +=
            "  # terraform_data.service[0] will be updated in-place\n  ~ resource \"terraform_data\" \"service\" {\n";
        raw += "      ~ input  = 3 -> 5\n    }\n\nPlan: 0 to add, 1 to change, 0 to destroy.\n";
        raw += "terraform_data.service[0]: Modifying... [id=61c259e4-1bfa-f97c-866e-81f8df16aca0]\n";
        raw += "terraform_data.service[0]: Modifications complete after 0s [id=61c259e4-1bfa-f97c-866e-81f8df16aca0]\n";
        raw += "Releasing state lock. This may take a few moments...\n\nApply complete! Resources: 0 added, 1 changed, 0 destroyed.\n";
        let text = compress("terraform apply -auto-approve", &raw, 0).text;
        assert!(
            text.starts_with(
                "… 10 lines not shown: state lock ×2, Refreshing state ×4, boilerplate ×3, Modifying ×1\n\
                 Terraform will perform the following actions:\n"
            ),
            "{text}"
        );
        assert!(text.contains("Modifications complete after 0s"), "{text}");
    }
}
