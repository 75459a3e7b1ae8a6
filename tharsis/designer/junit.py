"""Scenario results as JUnit XML (`tharsis test --junit-xml FILE`), the report CI systems show as a test tab.

One <testsuite> per scenario file, one <testcase> per scenario (its `file` and the `line` it begins on, so that
a CI annotation lands on the scenario): a failed expectation is a <failure>, a scenario
file that is itself wrong (bad YAML, unknown card) an <error>, a known engine bug that still fails (xfail) is
<skipped>, as pytest reports it; an xfail that passes now is a failure, so it gets noticed and unmarked.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

from tharsis.compiler.writing import replace_file


def write_junit(path: Path, report: list[tuple[str, list]]) -> None:
    """`report`: (scenario file, [(Outcome, seconds)]) in the order they ran."""
    root = ET.Element("testsuites", name="tharsis test")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    total_time = 0.0
    for file, outcomes in report:
        suite = ET.SubElement(root, "testsuite", name=file,
                              timestamp=datetime.now(timezone.utc).replace(microsecond=0).isoformat())
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        suite_time = 0.0
        for outcome, seconds in outcomes:
            counts["tests"] += 1
            suite_time += seconds
            case = ET.SubElement(suite, "testcase", classname=_classname(file), name=outcome.name, file=file,
                                 **({"line": str(outcome.line)} if outcome.line else {}), time=f"{seconds:.3f}")
            details = "\n".join(([outcome.error] if outcome.error else []) + outcome.failures)
            if outcome.xfail and outcome.passed:
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", type="xfail", message=f"known bug: {outcome.xfail}").text = details
            elif outcome.xfail:
                counts["failures"] += 1
                ET.SubElement(case, "failure", type="xpass",
                              message="marked xfail but passes now: remove the xfail")
            elif outcome.error:
                counts["errors"] += 1
                ET.SubElement(case, "error", message=_first_line(outcome.error)).text = details
            elif outcome.failures:
                counts["failures"] += 1
                ET.SubElement(case, "failure", message=_first_line(outcome.failures[0])).text = details
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", f"{suite_time:.3f}")
        total_time += suite_time
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{total_time:.3f}")
    ET.indent(root)
    replace_file(path, ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n")


def _classname(file: str) -> str:
    """tests/scenarios/rules/oceans.yaml -> tests.scenarios.rules.oceans (how CI tools group cases)."""
    return ".".join(Path(file).with_suffix("").parts)


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0]
