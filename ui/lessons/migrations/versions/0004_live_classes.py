"""Live classes: a lesson taken by a class at the teacher's pace (ui/live/class_store.py). A class
has its own code and teacher key; its students are random ids; their answers are one per student
and step, changeable until the step's reveal, which keeps the model's right answer.

Revision ID: 0004
Revises: 0003
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(6), nullable=False, unique=True),
        sa.Column("lesson_id", sa.Integer, sa.ForeignKey("lessons.id", ondelete="CASCADE"), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("pace", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("active", sa.Float, nullable=False, index=True),
        sa.Column("ended", sa.Float),
    )
    op.create_table(
        "class_students",
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("student", sa.String(16), primary_key=True),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_table(
        "class_answers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("student", sa.String(16), nullable=False),
        sa.Column("option", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False, index=True),
        sa.UniqueConstraint("class_id", "step", "student", name="one_answer_per_step"),
    )
    op.create_table(
        "class_reveals",
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("step", sa.Integer, primary_key=True),
        sa.Column("right", sa.String(64)),
        sa.Column("labels", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("class_reveals", "class_answers", "class_students", "classes"):
        op.drop_table(name)
