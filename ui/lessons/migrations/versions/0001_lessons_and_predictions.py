"""Lessons and the students' predictions.

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lessons",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(6), nullable=False, unique=True),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "predictions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("lesson_id", sa.Integer, sa.ForeignKey("lessons.id", ondelete="CASCADE"), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("student", sa.String(16), nullable=False),
        sa.Column("option", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("lesson_id", "step", "student", name="one_prediction_per_step"),
    )
    op.create_index("ix_predictions_at", "predictions", ["at"])


def downgrade() -> None:
    op.drop_index("ix_predictions_at", "predictions")
    op.drop_table("predictions")
    op.drop_table("lessons")
