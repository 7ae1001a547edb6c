"""Leak audit (issue #8): random games with bots in every seat, every view checked.

Each ruleset has a *knowledge model* (``onuw``, ``lupus``, ``epic``) written from the
rules, not from the engine's event audiences: from the master's state and the actions
played it works out what each seat (and a spectator) may know at each moment, then
reads every view back into facts and compares. A fact the viewer may not know is a
leak; an event the model cannot explain is a leak too (fail closed); a fact the viewer
should have and did not get is reported as "missing" (not a leak, but still a failure).
"""

from nightcall.audit.core import AuditResult, Finding, audit_game, run_audit

__all__ = ["AuditResult", "Finding", "audit_game", "run_audit"]
