"""The same sweep on a dask.distributed LocalCluster gives the same table as the local run."""
import pandas as pd
import pytest

from credal_core.experiments.evaluate import ClassifierGrid
from credal_core.experiments.sweeps import artificial_experiment, dataset_experiment

distributed = pytest.importorskip("dask.distributed")

SMALL = dict(sample_sizes=(15, 40), n_theta=2, n_train=3, n_test=500, n_features=6,
             grid=ClassifierGrid(epsilons=(0.05, 0.25), alphas=(0.75,)), seed=9)


def test_local_cluster_by_address_and_by_connected_client_equal_the_local_run():
    """One cluster (two worker processes) serves both ways of reaching it: starting a cluster costs
    several CPU seconds in each worker process, and the two tests of one module may run in different
    pytest-xdist workers, so two test functions could each start their own."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        _check_by_address(cluster)
        _check_connected_client_is_used_and_left_open(cluster)


def _check_by_address(cluster):
    local = artificial_experiment(**SMALL)
    seen = []
    remote = artificial_experiment(scheduler=cluster.scheduler_address,
                                   progress=lambda done, total: seen.append(done), **SMALL)
    pd.testing.assert_frame_equal(local, remote)
    assert seen == [1, 2, 3, 4]


def _check_connected_client_is_used_and_left_open(cluster):
    frame = pd.read_csv("sample_data/weather.csv")
    X, y = frame.drop(columns="play"), frame["play"]
    with distributed.Client(cluster) as client:
        remote = dataset_experiment(X, y, n_splits=2, n_repeats=2, scheduler=client)
        assert client.status == "running"
    local = dataset_experiment(X, y, n_splits=2, n_repeats=2)
    pd.testing.assert_frame_equal(local, remote)
