"""Throwaway TLS material for tests: a certificate authority with one certificate and key it
signed, written as PEM files (``distributed.security.Security.temporary()`` makes them)."""

from __future__ import annotations

import os
from pathlib import Path


def write_tls(folder: Path) -> dict[str, str]:
    """``{"ca": ..., "cert": ..., "key": ...}``: PEM files of a fresh CA, private to this user."""
    from distributed.security import Security

    made = Security.temporary()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    files = {}
    for name, pem in (
        ("ca", made.tls_ca_file),
        ("cert", made.tls_client_cert),
        ("key", made.tls_client_key),
    ):
        path = folder / f"{name}.pem"
        path.write_text(pem)
        os.chmod(path, 0o600)
        files[name] = str(path)
    return files


def flags(files: dict[str, str]) -> list[str]:
    """The command line's TLS flags for ``files``."""
    return ["--tls-ca-file", files["ca"], "--tls-cert", files["cert"], "--tls-key", files["key"]]


def dask_flags(files: dict[str, str]) -> list[str]:
    """``dask scheduler`` / ``dask worker``'s TLS flags for ``files``."""
    return ["--tls-ca-file", files["ca"], "--tls-cert", files["cert"], "--tls-key", files["key"]]


def no_certificate():
    """A client's security that speaks TLS but has no certificate and trusts any server: an
    intruder who knows the address and the protocol, and nothing else."""
    import ssl

    from distributed.security import Security

    class _Bare(Security):
        def get_connection_args(self, role):
            context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            return {"ssl_context": context, "require_encryption": True, "extra_conn_args": {}}

    return _Bare()
