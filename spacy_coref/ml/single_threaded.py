"""Encoder calls on one torch thread each, several side by side.

How many threads split a matrix product can change the order of its sums: on an Intel Xeon
with AMX, oneDNN's bf16 kernels gave other bits for the same call on 1 thread than on 2, and
forked workers (`nlp.pipe(n_process=2)`) must run torch on one thread (spacy_coref/__init__.py).
So each batch-invariant encoder call runs on one thread, whatever the process has, and the
process's threads run that many calls at once, each on a worker thread of its own. A call's
output then depends on its inputs alone; the thread count decides only how many run together.
"""
import contextlib
import queue
import threading
from typing import Callable, ContextManager, Iterator, List, Sequence, Tuple, TypeVar

import torch

Result = TypeVar("Result")
_FINISHED = object()


@contextlib.contextmanager
def one_torch_thread() -> Iterator[None]:
    """torch's intra-op threads at one inside the block, as they were after it."""
    saved = torch.get_num_threads()
    if saved != 1:
        torch.set_num_threads(1)
    try:
        yield
    finally:
        if saved != 1:
            torch.set_num_threads(saved)


def run_single_threaded(
    calls: Sequence[Callable[[], Result]],
    n_workers: int,
    context: Callable[[], ContextManager] = contextlib.nullcontext,
) -> Iterator[Tuple[int, Result]]:
    """Run every call on one torch thread, up to `n_workers` at once.

    calls (Sequence[Callable[[], Result]]): the calls, each independent of the others.
    n_workers (int): how many run side by side (1 or fewer: one after another, on this thread).
    context (Callable[[], ContextManager]): entered once on each thread that runs calls, around
        all its calls (torch's autocast and grad mode belong to a thread, and autocast casts
        each weight once per region).
    YIELDS (Tuple[int, Result]): (index of the call, its result), in the order they finish;
        at most 2 x n_workers results wait to be taken, so the outputs alive at once stay few.
        An exception in a call is raised here.
    """
    n_workers = min(int(n_workers), len(calls))
    if n_workers <= 1:
        with one_torch_thread(), context():
            for i, call in enumerate(calls):
                yield i, call()
        return
    saved = torch.get_num_threads()
    done: "queue.Queue[object]" = queue.Queue(maxsize=2 * n_workers)
    taken = iter(range(len(calls)))
    lock = threading.Lock()
    stop = threading.Event()

    def work() -> None:
        try:
            # the thread's own OpenMP setting, and MKL's, which the caller restores below
            torch.set_num_threads(1)
            with context():
                while not stop.is_set():
                    with lock:
                        i = next(taken, None)
                    if i is None:
                        break
                    done.put((i, calls[i]()))
        except BaseException as error:  # handed to the caller, which raises it
            done.put(error)
        finally:
            done.put(_FINISHED)

    workers: List[threading.Thread] = [
        threading.Thread(target=work, name=f"spacy_coref-encoder-{k}", daemon=True)
        for k in range(n_workers)
    ]
    for worker in workers:
        worker.start()
    try:
        finished = 0
        while finished < n_workers:
            item = done.get()
            if item is _FINISHED:
                finished += 1
            elif isinstance(item, BaseException):
                raise item
            else:
                yield item  # type: ignore[misc]
    finally:
        stop.set()
        while any(worker.is_alive() for worker in workers):  # none may block on a full queue
            try:
                done.get(timeout=0.01)
            except queue.Empty:
                pass
        for worker in workers:
            worker.join()
        torch.set_num_threads(saved)
