"""The Epic Battle reasoning bot (:class:`~nightcall.bots.epic.bot.EpicBot`): knowledge
read from the seat's view, a belief per seat, night rules per call and a vote."""
