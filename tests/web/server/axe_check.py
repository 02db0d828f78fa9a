"""axe-core's WCAG 2.1 A and AA rules run in a Selenium-driven Chromium page.

axe-core comes from the npm registry (tests/web/a11y/package.json and its lock file; scripts/test.sh
runs `npm ci` there); a browser test takes the path of its axe.min.js (--axe) and calls
check(driver, axe_js, where) on each page and state it reaches: every violation fails the test
with its rule, impact and the first elements it names.
"""

RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


class AxeFailure(Exception):
    pass


def violations(driver, axe_js):
    """The violations of the page as it is now: a list of axe's results (id, impact, help, nodes)."""
    with open(axe_js, encoding="utf-8") as f:
        source = f.read()
    if not driver.execute_script("return !!window.axe;"):
        driver.execute_script(source)
    result = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: "tag", values: arguments[0]}, resultTypes: ["violations"]})
          .then((r) => done({violations: r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map((n) => ({target: n.target, summary: n.failureSummary}))}))}))
          .catch((e) => done({error: String(e)}));""",
        RULES)
    if "error" in result:
        raise AxeFailure(f"axe-core did not run: {result['error']}")
    return result["violations"]


def check(driver, axe_js, where):
    """Raises AxeFailure naming every violation of the page as it is now; returns how many rules ran."""
    found = violations(driver, axe_js)
    if found:
        lines = [f"{where}: {len(found)} accessibility violation(s) (axe-core, WCAG 2.1 A/AA):"]
        for v in found:
            lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
            for n in v["nodes"]:
                lines.append(f"    {n['target']}: {(n['summary'] or '').splitlines()[0:2]}")
        raise AxeFailure("\n".join(lines))
