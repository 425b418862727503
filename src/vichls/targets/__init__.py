"""What a target is: the operator library (latency, delay, cost per operator) and the
device tables it is calibrated for."""
