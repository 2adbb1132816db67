"""Command line for deployments, click style."""

from __future__ import annotations

import click

from .config import Config, load_config

DEFAULT_TIMEOUT = 300.0


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120})
@click.version_option(package_name="deployer", prog_name="deploy", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Deployment tools."""
    ctx.obj = load_config()


@cli.command()
@click.option("--environment", "-e", type=click.Choice(["staging", "production"]), required=True, help="Target environment.")
@click.option("--version", "-v", default="latest", show_default=True, help="Image tag to deploy.")
@click.option("--replicas", type=int, default=2, show_default=True, help="Number of replicas to run.")
@click.option("--dry-run", is_flag=True, help="Print the plan without applying it.")
@click.option("--timeout", type=float, default=DEFAULT_TIMEOUT, help="Seconds to wait for the rollout.")
@click.option("--verbose", is_flag=True, help="Print every step as it runs.")
@click.pass_obj
def deploy(config: Config, environment: str, version: str, replicas: int, dry_run: bool, timeout: float, verbose: bool) -> None:
    """Roll out a version to an environment."""
    plan = config.plan(environment, version, replicas)
    if dry_run:
        click.echo(plan)
        return
    plan.apply(timeout=timeout, verbose=verbose)


class Rollout:
    @staticmethod
    @functools.lru_cache(maxsize=None)
    @retry(stop=stop_after_attempt(5), wait=wait_exponential(multiplier=1, min=4, max=10), reraise=True)
    def fetch_status(deployment_name: str, namespace: str = "default", *, include_events: bool = False) -> dict[str, list[tuple[str, int]]]:
        """Current rollout status."""
        return {}
