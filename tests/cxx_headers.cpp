// The public headers must compile as C++ (and link against the shared library).
#include <nxp/nxp.h>

int main()
{
	nxp_status st;
	nxp_status_init(&st);
	return nxp_version_number() == NXP_VERSION_NUMBER ? 0 : 1;
}
