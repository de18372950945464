"""A prediction keeps what the model answered when it was locked: the sentence comparing the two
(the student's summary at the end of a lesson) and whether it was right (None: "Not sure yet").

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("predictions") as batch:
        batch.add_column(sa.Column("outcome", sa.String(800), nullable=True))
        batch.add_column(sa.Column("correct", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("predictions") as batch:
        batch.drop_column("correct")
        batch.drop_column("outcome")
