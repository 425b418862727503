"""What the structural level becomes: Verilog."""
