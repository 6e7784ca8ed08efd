"""Summarises a folder of JUnit XML reports (surefire/failsafe): counts, then each failure.

    python3 scripts/junit-summary.py REPORTS_DIR

Prints "test cases N, passed P, failed F, skipped S", then one line per failed or erroring test
case: Class#method :: the first 160 characters of its message (or its exception type).
"""
import glob
import sys
import xml.etree.ElementTree as ET

counts = {"passed": 0, "failed": 0, "skipped": 0}
failed = []
for f in sorted(glob.glob(sys.argv[1] + "/TEST-*.xml")):
    for case in ET.parse(f).getroot().iter("testcase"):
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                outcome = "failed"
                message = " ".join((child.get("message") or child.get("type") or "").split())
                failed.append(f"{case.get('classname').split('.')[-1]}#{case.get('name')} :: {message[:160]}")
                break
            if child.tag == "skipped":
                outcome = "skipped"
        counts[outcome] += 1
print(f"test cases {sum(counts.values())}, passed {counts['passed']}, failed {counts['failed']}, skipped {counts['skipped']}")
for line in failed:
    print("  " + line)
