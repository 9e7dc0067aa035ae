#!/bin/bash
# `make bundle-keys`: a development PKI for RAUC bundles in DIR (default dev-keys/, gitignored):
# ca.cert.pem and ca.key.pem (a certificate authority; the image's RAUC keyring is its
# certificate) and signing.key.pem with signing.cert.pem (issued by it; `make bundle` signs with
# them). Nothing is made when DIR already holds them. A fleet's own keys come in through
# BUNDLE_KEY, BUNDLE_CERT and BUNDLE_CA instead; these never leave the build machine.
set -euo pipefail
DIR=${1:-dev-keys}
[ -f "$DIR/ca.cert.pem" ] && [ -f "$DIR/signing.cert.pem" ] && [ -f "$DIR/signing.key.pem" ] && exit 0
mkdir -p "$DIR"
chmod 0700 "$DIR"
cd "$DIR"
cat >ext.cnf <<'CNF'
[mlds_ca]
basicConstraints=critical,CA:TRUE
keyUsage=critical,keyCertSign,cRLSign
subjectKeyIdentifier=hash
[mlds_signing]
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
CNF
openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -subj "/O=mlds development/CN=mlds development bundle CA" \
  -keyout ca.key.pem -out ca.cert.pem -extensions mlds_ca -config <(cat /etc/ssl/openssl.cnf ext.cnf) 2>/dev/null
openssl req -new -newkey rsa:3072 -nodes -subj "/O=mlds development/CN=mlds development bundle signing" \
  -keyout signing.key.pem -out signing.csr 2>/dev/null
openssl x509 -req -in signing.csr -CA ca.cert.pem -CAkey ca.key.pem -CAcreateserial -days 3650 \
  -extfile ext.cnf -extensions mlds_signing -out signing.cert.pem 2>/dev/null
rm -f signing.csr ca.cert.srl ext.cnf
chmod 0600 ca.key.pem signing.key.pem
echo "bundle-keys: a development CA and signing key in $DIR"
