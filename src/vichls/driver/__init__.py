"""The flows that string the pipelines together: one kernel to one component
(``component``), a design to Verilog and its report (``fpga``), a dataflow design's
tasks and top (``dataflow``), a module to any target (``build``)."""
