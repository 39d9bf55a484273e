"""Signals of the table framework, for apps that project the event log further."""

from django.dispatch import Signal

# Sent inside the transaction that ends a table (status just became finished),
# from the one write path (actions._store_state): `table`, and `state`, the
# final game state (the state when the table ended, for resignations and
# abandoned tables). Receivers write their projections atomically with it.
table_finished = Signal()
