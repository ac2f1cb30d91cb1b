"""Pseudonyms: stable tokens in place of personal values, the keys they are computed
with, the local vault that turns a token back into its value, and the policy that
decides where it may."""
