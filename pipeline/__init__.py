"""Everything around the kernels: formats, datasets, planning, cluster, execution, CLI."""
