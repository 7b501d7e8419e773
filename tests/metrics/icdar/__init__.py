"""ICDAR IoU family: ICDAR15 IoU, SIoU/TIoU, curved, word + text-line (spec 1, 3)."""
