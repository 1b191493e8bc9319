"""Type aliases shared across the package."""
from typing import List, Tuple

# A mention as token offsets into its doc: (start, end), end exclusive, like `doc[start:end]`.
MentionOffset = Tuple[int, int]
MentionOffsets = List[MentionOffset]
# Clusters as lists of mentions; each cluster sorted, clusters in document order.
ClusterOffsets = List[List[MentionOffset]]
