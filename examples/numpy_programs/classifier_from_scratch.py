"""A logistic-regression classifier written from scratch in a small class, with a train/test
split, standardization, a confusion matrix and a k-nearest-neighbour baseline: the shape of
an introductory machine-learning exercise."""
import numpy as np

# (deterministic stand-ins for a measured data set: 240 samples, 3 features)
n = 240
t = np.arange(n)
X = np.stack([np.sin(t * 0.37) * 2 + 1, np.cos(t * 0.11) * 3, (t % 17) / 4.0], axis=1)
y = (X[:, 0] + 0.5 * X[:, 1] - 0.3 * X[:, 2] > 0.4).astype(int)
order = np.argsort((t * 7919) % n, kind="stable")
train, test = order[:180], order[180:]
X_train, X_test, y_train, y_test = X[train], X[test], y[train], y[test]
mu, sd = X_train.mean(axis=0), X_train.std(axis=0)
X_train = (X_train - mu) / sd
X_test = (X_test - mu) / sd


class LogisticRegression:
    def __init__(self, lr=0.5, epochs=300):
        self.lr, self.epochs = lr, epochs

    def fit(self, X, y):
        self.w = np.zeros(X.shape[1])
        self.b = 0.0
        self.losses = []
        for epoch in range(self.epochs):
            p = 1 / (1 + np.exp(-(X @ self.w + self.b)))
            self.w -= self.lr * X.T @ (p - y) / len(y)
            self.b -= self.lr * np.mean(p - y)
            if epoch % 50 == 0:
                eps = 1e-12
                self.losses.append(float(-np.mean(y * np.log(p + eps)
                                                  + (1 - y) * np.log(1 - p + eps))))
        return self

    def predict_proba(self, X):
        return 1 / (1 + np.exp(-(X @ self.w + self.b)))

    def predict(self, X):
        return (self.predict_proba(X) > 0.5).astype(int)


model = LogisticRegression().fit(X_train, y_train)
pred = model.predict(X_test)
accuracy = (pred == y_test).mean()
conf = np.zeros((2, 2), dtype=int)
for truth, guess in zip(y_test, pred):
    conf[truth, guess] += 1
precision = conf[1, 1] / max(conf[:, 1].sum(), 1)

# a k-nearest-neighbour baseline by broadcasting
d2 = ((X_test[:, np.newaxis, :] - X_train[np.newaxis, :, :]) ** 2).sum(axis=-1)
nearest = np.argsort(d2, axis=1, kind="stable")[:, :5]
knn_pred = (y_train[nearest].mean(axis=1) > 0.5).astype(int)
knn_accuracy = (knn_pred == y_test).mean()

print(f"weights {np.round(model.w, 3)}, bias {model.b:.3f}")
print(f"accuracy {accuracy:.3f}, precision {precision:.3f}, knn {knn_accuracy:.3f}")
print("loss", np.round(model.losses, 4))
results = {"w": model.w, "b": model.b, "accuracy": accuracy, "conf": conf,
           "precision": precision, "losses": model.losses, "knn_accuracy": knn_accuracy,
           "proba": model.predict_proba(X_test[:5])}
