"""Persistence on the user's machine: the data directory and the practice-ladder progress."""

from .progress import Progress, data_dir, load_progress, progress_path, save_progress

__all__ = ["Progress", "data_dir", "load_progress", "progress_path", "save_progress"]
