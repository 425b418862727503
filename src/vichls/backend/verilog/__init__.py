"""The Verilog printer of the structural level (the primitives it instantiates are in rtl_templates/, beside it)."""
