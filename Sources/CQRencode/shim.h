#ifndef PLUMB_CQRENCODE_SHIM_H
#define PLUMB_CQRENCODE_SHIM_H
// libqrencode (Debian libqrencode-dev): `plumb serve` draws the learners' URL as a QR code.
#include <qrencode.h>
#endif
