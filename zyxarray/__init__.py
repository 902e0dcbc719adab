"""zyxarray"""
