"""Nearest-neighbour classification of handwritten-like feature vectors, as one writes it."""
import numpy as np

# (deterministic stand-ins for measured data)
centers = 3 * np.sin(np.arange(100).reshape(5, 20) * 1.7)
labels = (np.arange(1200) * 7919) % 5
X = centers[labels] + 1.5 * np.sin(np.arange(24000).reshape(1200, 20) * 0.37 + 1.0)
X = X.astype(np.float32)

# standardize with the training statistics
train, test = X[:900], X[900:]
y_train, y_test = labels[:900], labels[900:]
mu, sd = train.mean(axis=0), train.std(axis=0)
train = (train - mu) / sd
test = (test - mu) / sd

# squared distances without a loop
d2 = (test ** 2).sum(axis=1)[:, None] - 2 * test @ train.T + (train ** 2).sum(axis=1)[None, :]
nearest = np.argsort(d2, axis=1)[:, :5]
votes = y_train[nearest]
pred = np.array([np.bincount(v, minlength=5).argmax() for v in votes])
accuracy = (pred == y_test).mean()

# a confusion matrix filled in a loop, then per-class recall
conf = np.zeros((5, 5), dtype=np.int64)
for t, p in zip(y_test, pred):
    conf[t, p] += 1
recall = np.diag(conf) / conf.sum(axis=1)
print("accuracy %.3f  recall %s" % (accuracy, np.round(recall, 3)))
results = {"accuracy": accuracy, "conf": conf, "recall": recall}
