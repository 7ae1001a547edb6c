"""Agents: everything that lets a program take a seat through the protocol.

- :mod:`~nightcall.agents.table`: one game behind the protocol (observe, submit).
- :mod:`~nightcall.agents.action_space`: the fixed numbered actions behind masks.
- :mod:`~nightcall.agents.env`: a PettingZoo-style AEC environment, no dependencies.
- :mod:`~nightcall.agents.pettingzoo_env`: the same as a real ``pettingzoo.AECEnv``
  (needs the ``pettingzoo`` extra).
- :mod:`~nightcall.agents.stdio`: the game master speaking JSON lines to agent programs.
- :mod:`~nightcall.agents.llm`: a player for any OpenAI-compatible endpoint.
"""
