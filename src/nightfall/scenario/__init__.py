"""The scenario runner: YAML files that set up a game, run commands and check facts.

The file format is the project's black-box contract (docs/scenario-format.md).
"""

from nightfall.scenario.loader import ScenarioError, load_scenario
from nightfall.scenario.runner import ScenarioResult, run_file, run_scenario

__all__ = ["ScenarioError", "ScenarioResult", "load_scenario", "run_file", "run_scenario"]
