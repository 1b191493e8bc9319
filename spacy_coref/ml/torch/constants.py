# Score matrices are [n_mentions, 1 + K]: the null antecedent (epsilon, "no antecedent", whose
# score is fixed at 0) sits in this column and the K candidate antecedents follow it.
NULL_COLUMN = 0
FIRST_ANTECEDENT_COLUMN = 1
# Score of a padded or impossible antecedent. Finite so that fp16 autocast cannot overflow it
# into NaN; far enough below any real score that its softmax weight is zero.
MASKED_SCORE = -1e4
