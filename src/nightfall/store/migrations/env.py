"""Alembic environment: migrations run on the engine handed over by ``migrate``."""

from __future__ import annotations

from alembic import context

from nightfall.store.schema import metadata

engine = context.config.attributes["engine"]
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
