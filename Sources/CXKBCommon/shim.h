#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-names.h>
