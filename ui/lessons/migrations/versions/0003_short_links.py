"""Short links: a view of a page (its path and its link's settings) kept under a 6-character code,
opened by the link's `v` value (ui/lessons/short_links.py).

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "views",
        sa.Column("code", sa.String(6), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("page", sa.String(40), nullable=False),
        sa.Column("query", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("opened", sa.Float, nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("views")
