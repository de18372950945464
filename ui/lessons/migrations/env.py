"""Alembic's environment: migrations run on the connection ui/lessons/database.py hands over
(in its transaction, under its lock), never from a configuration file."""
from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, transactional_ddl=True,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
