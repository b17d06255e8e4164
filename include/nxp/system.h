/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/system.h
 * @brief System profiles (.pb), framework traces (trace.json) and capture
 *        directories.  Include <nxp/nxp.h>, not this file.
 */
#ifndef NXP_SYSTEM_H
#define NXP_SYSTEM_H

#include <nxp/nxp.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* NXP_SYSTEM_H */
