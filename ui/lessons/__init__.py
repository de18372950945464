"""Lessons (DESIGN 5.3): a teacher's ordered views with prediction questions, and what students
answered. `database.py` opens the database (SQLite in the data folder, or PostgreSQL) and brings
its tables up to date with the Alembic migrations in `migrations/`; `codes.py` makes the short
codes, teacher keys and student ids; `lesson_store.py` keeps lessons and predictions. None of
these three imports Streamlit."""
