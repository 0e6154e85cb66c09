"""Seed text formats: parse problem input files and write the seeds' exact output."""
