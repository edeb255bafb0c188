"""Placeholder replaced in the publishing change."""
