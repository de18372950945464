"""The live class: a lesson taken by a whole class at the teacher's pace, its state in the
lessons' database (class_store), so that every process and machine of the deploy sees one class."""
